"""Talking to Slack's Web API: the client, delivering a `Reply`, each user's locale."""
