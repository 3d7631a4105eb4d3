"""The real-wiki benchmark (issue 22): question files beside the code, vaults never committed."""
