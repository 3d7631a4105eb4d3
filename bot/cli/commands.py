"""The ``sakuin`` command (contract: shared docs, product.md). Exit 0 ok, 2 bad usage, 1 failure."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import date, datetime, time, tzinfo
from importlib import metadata
from typing import TYPE_CHECKING

from bot.blocks.page_types import type_label
from bot.cli.fresh_index import fresh_wiki, open_wiki, print_report, update_with_progress
from bot.cli.terminal import err, out, print_json
from bot.i18n import N_, Language, _, default_language, language_for_locale, use_language
from bot.serve.inbound import clean_text
from config.settings import Settings, SettingsError, load_settings
from config.system import system_locale
from index import Lookup, SearchResult

if TYPE_CHECKING:
    from bot.state.feedback import UnansweredQuestion, Vote


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sakuin", description="A research wiki in Slack, and on the command line."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    index = commands.add_parser("index", help="build or update the index of WIKI_DIR")
    index.add_argument("--rebuild", action="store_true", help="rebuild from scratch")

    lookup = commands.add_parser("lookup", help="resolve an entity name, as /entity does")
    lookup.add_argument("--json", action="store_true", help="print JSON")
    lookup.add_argument("name", nargs="+")

    search = commands.add_parser("search", help="full-text search, as mention questions use it")
    search.add_argument("--json", action="store_true", help="print JSON")
    search.add_argument("--limit", type=_positive, default=5)
    search.add_argument("query", nargs="+")

    ask = commands.add_parser("ask", help="answer TEXT as the bot would in Slack")
    ask.add_argument("--json", action="store_true", help="print the Slack message payload")
    ask.add_argument("text", nargs="+")

    commands.add_parser("shell", help="interactive console")

    digest = commands.add_parser("digest", help="the digest of new sources for a day")
    digest.add_argument(
        "--date", type=_day, default=None, help="YYYY-MM-DD (default: yesterday in DIGEST_TZ)"
    )
    digest.add_argument("--dry-run", action="store_true", help="print instead of posting")
    digest.add_argument("--json", action="store_true", help="print JSON")

    commands.add_parser("serve", help="run the bot over HTTP (PORT)")
    commands.add_parser("mcp", help="serve the wiki over MCP on stdin/stdout, for an agent")
    commands.add_parser("socket", help="run the bot in Socket Mode (SLACK_APP_TOKEN)")

    feedback = commands.add_parser(
        "feedback", help="votes on answers, and the questions sakuin could not answer"
    )
    feedback.add_argument("--since", type=_day, default=None, help="YYYY-MM-DD (in DIGEST_TZ)")
    feedback.add_argument("--json", action="store_true", help="print JSON")

    inbox = commands.add_parser("inbox", help="the questions filed in the wiki's inbox")
    inbox.add_argument("--json", action="store_true", help="print JSON")

    doctor = commands.add_parser("doctor", help="check this installation: tokens, scopes, channels, vault …")
    doctor.add_argument("--json", action="store_true", help="print JSON")

    manifest = commands.add_parser("manifest", help="print the Slack app manifest")
    manifest.add_argument("--url", default=None, help="public base URL for HTTP mode")
    return parser


def installed_version() -> str:
    try:
        return metadata.version("sakuin")
    except metadata.PackageNotFoundError:  # run from a checkout without `pip install -e .`
        return "unknown"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected YYYY-MM-DD, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = clean_arguments(parser.parse_args(argv))
    if args.command is None:
        parser.print_help()
        return 0
    try:
        settings = load_settings()
        logging.basicConfig(
            level=settings.log_level.upper(),
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        # The command line prints the index report (with every problem file) itself.
        index_log = logging.getLogger("sakuin.index")
        index_log.setLevel(max(index_log.getEffectiveLevel(), logging.ERROR))
        # The SDK's notices of each retry say less than the one line that says what failed.
        for name in ("bot.slack_client", "slack_sdk.web", "slack_sdk.webhook"):
            quiet = logging.getLogger(name)
            quiet.setLevel(max(quiet.getEffectiveLevel(), logging.WARNING))
        with use_language(terminal_language(settings)):
            code = COMMANDS[args.command](settings, args)
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
            return code
    except SettingsError as error:
        if args.command == "doctor":
            from bot.cli.doctor_report import Check, report_checks

            return report_checks([Check("settings", False, str(error))], args.json)
        err.print(f"sakuin: {error}")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `sakuin search … | head -1`: the reader has all it wanted
        silence_stdout()
        return 0
    except Exception as error:
        logging.getLogger("sakuin").debug("failure", exc_info=True)
        err.print(f"sakuin: error: {type(error).__name__}: {error}")
        return 1


def silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush into the closed pipe is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def terminal_language(settings: Settings) -> Language:
    """``UI_LANGUAGE``; under ``auto``, the system locale's as a Slack user's locale is taken: English
    for ``en_*``, else Japanese. ``ask`` and ``shell`` answer a question in its own language, as
    Slack does, and ``/entity`` or ``/wiki`` in this one, as Slack answers a command in the user's."""
    return language_for_locale(system_locale(), settings.ui_language)


def clean_arguments(args: argparse.Namespace) -> argparse.Namespace:
    """The arguments with lone surrogates replaced (`bot.serve.inbound.clean_text`): Python decodes
    an argument that is not UTF-8 into them, and no answer could be printed with one."""
    for name, value in vars(args).items():
        if isinstance(value, str):
            setattr(args, name, clean_text(value))
        elif isinstance(value, list):
            setattr(args, name, [clean_text(item) if isinstance(item, str) else item for item in value])
    return args


def run_index(settings: Settings, args: argparse.Namespace) -> int:
    wiki = open_wiki(settings)
    report = update_with_progress(wiki, rebuild=args.rebuild)
    print_report(report, out)
    return 0


def run_lookup(settings: Settings, args: argparse.Namespace) -> int:
    result = fresh_wiki(settings).lookup(" ".join(args.name))
    if args.json:
        print_json(lookup_json(result))
    else:
        print_lookup(result)
    return 0


def lookup_json(result: Lookup) -> dict[str, object]:
    def brief(candidate: object) -> dict[str, object]:
        data = asdict(candidate)  # type: ignore[call-overload]
        return {key: data[key] for key in ("path", "title", "type", "score")}

    match = brief(result.match) if result.match else None
    if match:
        match.pop("score")
    unresolved = None
    if result.unresolved:
        unresolved = {
            "name": result.unresolved.name,
            "mentioned_in": [ref.path for ref in result.unresolved.mentioned_in],
        }
    return {
        "query": result.query,
        "match": match,
        "candidates": [brief(candidate) for candidate in result.candidates],
        "unresolved": unresolved,
        "ambiguous": result.ambiguous,
    }


def print_lookup(result: Lookup) -> None:
    if result.match:
        match = result.match
        out.print(
            _("match: {title} ({type}) {path}").format(
                title=match.title, type=type_label(match.type), path=match.path
            )
        )
    elif result.unresolved:
        out.print(_("no page yet for {name}; mentioned in:").format(name=result.unresolved.name))
        for ref in result.unresolved.mentioned_in:
            out.print(f"  {ref.name}  {ref.path}")
    else:
        out.print(_("no page named {query}").format(query=repr(result.query)))
    for candidate in result.candidates:
        kind = type_label(candidate.type)
        out.print(f"  {candidate.score:5.1f}  {candidate.title} ({kind})  {candidate.path}")


def run_search(settings: Settings, args: argparse.Namespace) -> int:
    result = fresh_wiki(settings).search(" ".join(args.query), limit=args.limit)
    if args.json:
        print_json(search_json(result))
    else:
        print_search(result)
    return 0


def search_json(result: SearchResult) -> dict[str, object]:
    return {
        "query": result.query,
        "hits": [
            {"path": h.path, "title": h.title, "type": h.type, "score": h.score, "snippet": h.snippet}
            for h in result.hits
        ],
    }


def print_search(result: SearchResult) -> None:
    if not result.hits:
        out.print(_("no pages match"))
    for number, hit in enumerate(result.hits, start=1):
        out.print(f"{number}. {hit.title} ({type_label(hit.type)})  {hit.path}")
        out.print(f"   {hit.snippet}")


def run_ask(settings: Settings, args: argparse.Namespace) -> int:
    """The messages as Slack would end up showing them: with ``LLM_*`` set, after the model
    answered (or failed, which leaves the extractive answer)."""
    from bot.answering.model_rewrite import final_reply
    from bot.answering.replies import replies_for_text
    from bot.cli.terminal import render_reply

    wiki = fresh_wiki(settings)
    replies = [
        asyncio.run(final_reply(reply, settings))
        for reply in replies_for_text(" ".join(args.text), wiki, settings)
    ]
    if args.json:
        payloads = [reply.message() for reply in replies]
        print_json(payloads[0] if len(payloads) == 1 else payloads)
    else:
        for reply in replies:
            render_reply(reply, out)
    return 0


def run_shell(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.shell import run_shell as shell

    return shell(settings, fresh_wiki(settings), out)


def run_digest(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.digest import digest_command

    return asyncio.run(digest_command(settings, args.date, dry_run=args.dry_run, as_json=args.json))


def run_serve(settings: Settings, args: argparse.Namespace) -> int:
    from bot.serve.runtime import run_http

    asyncio.run(run_http(settings))
    return 0


def run_mcp(settings: Settings, args: argparse.Namespace) -> int:
    """Stdout is the protocol's: the index report and logs go to stderr."""
    from bot.cli.mcp_stdio import serve_stdio

    asyncio.run(serve_stdio(settings, fresh_wiki(settings)))
    return 0


def run_socket(settings: Settings, args: argparse.Namespace) -> int:
    from bot.serve.runtime import run_socket as socket

    asyncio.run(socket(settings))
    return 0


VOTES_HEADING = N_("votes (newest first):")
NO_VOTES = N_("no votes")
UNANSWERED_HEADING = N_("questions the wiki could not answer (newest first):")
NO_UNANSWERED = N_("no unanswered questions")
VOTE_MARKS = {"up": "👍", "down": "👎"}


def run_feedback(settings: Settings, args: argparse.Namespace) -> int:
    from bot.state.store import open_state_store

    zone = settings.zone
    since = datetime.combine(args.since, time(0), tzinfo=zone).timestamp() if args.since else None
    with open_state_store(settings.state_db) as store:
        votes, unanswered = store.votes(since), store.unanswered(since)
    if args.json:
        print_json(feedback_json(votes, unanswered, zone))
    else:
        print_feedback(votes, unanswered, zone)
    return 0


def feedback_json(
    votes: Sequence[Vote], unanswered: Sequence[UnansweredQuestion], zone: tzinfo
) -> dict[str, object]:
    """Votes and unanswered questions, newest first, times in ``zone`` (``DIGEST_TZ``)."""
    return {
        "feedback": [
            {"question": v.question, "vote": v.vote, "pages": list(v.pages), "at": _iso(v.at, zone)}
            for v in votes
        ],
        "unanswered": [{"question": item.question, "at": _iso(item.at, zone)} for item in unanswered],
    }


def print_feedback(votes: Sequence[Vote], unanswered: Sequence[UnansweredQuestion], zone: tzinfo) -> None:
    out.print(_(VOTES_HEADING))
    for vote in votes:
        pages = ", ".join(vote.pages) or "-"
        out.print(f"  {_minute(vote.at, zone)}  {VOTE_MARKS[vote.vote]}  {vote.question}  [{pages}]")
    if not votes:
        out.print("  " + _(NO_VOTES))
    out.print(_(UNANSWERED_HEADING))
    for item in unanswered:
        out.print(f"  {_minute(item.at, zone)}  {item.question}")
    if not unanswered:
        out.print("  " + _(NO_UNANSWERED))


def _iso(at: float, zone: tzinfo) -> str:
    return datetime.fromtimestamp(at, zone).isoformat(timespec="seconds")


def _minute(at: float, zone: tzinfo) -> str:
    return datetime.fromtimestamp(at, zone).strftime("%Y-%m-%d %H:%M")


def run_inbox(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.inbox import inbox_command

    return inbox_command(settings, as_json=args.json)


def run_doctor(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.doctor import run_checks
    from bot.cli.doctor_report import report_checks

    return report_checks(asyncio.run(run_checks(settings)), args.json)


def run_manifest(settings: Settings, args: argparse.Namespace) -> int:
    from bot.slack.manifest import build_manifest

    with use_language(default_language(settings.ui_language)):  # one manifest for the whole workspace
        print_json(build_manifest(settings, args.url))
    return 0


COMMANDS: dict[str, Callable[[Settings, argparse.Namespace], int]] = {
    "index": run_index,
    "lookup": run_lookup,
    "search": run_search,
    "ask": run_ask,
    "shell": run_shell,
    "digest": run_digest,
    "serve": run_serve,
    "mcp": run_mcp,
    "socket": run_socket,
    "feedback": run_feedback,
    "inbox": run_inbox,
    "doctor": run_doctor,
    "manifest": run_manifest,
}
