"""Code Repo vocabulary: languages, licenses, topics, people, labels, milestones, branches."""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("Python", "TypeScript", "JavaScript", "Go", "Rust", "Java",
                              "C++", "Ruby")
LANGUAGE_COLORS: dict[str, str] = {
    "Python": "#3572A5", "TypeScript": "#3178c6", "JavaScript": "#f1e05a", "Go": "#00ADD8",
    "Rust": "#dea584", "Java": "#b07219", "C++": "#f34b7d", "Ruby": "#701516",
}
LICENSES: tuple[str, ...] = ("MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause", "MPL-2.0")
LICENSE_NAMES: dict[str, str] = {
    "MIT": "MIT license", "Apache-2.0": "Apache-2.0 license", "GPL-3.0": "GPL-3.0 license",
    "BSD-3-Clause": "BSD-3-Clause license", "MPL-2.0": "MPL-2.0 license",
}
TOPICS: tuple[str, ...] = ("api", "cli", "database", "machine-learning", "web", "devops",
                           "testing", "security")
STAR_STEPS: tuple[str, ...] = ("100", "1000", "5000", "10000")
STAR_LABELS: dict[str, str] = {"100": "100+ stars", "1000": "1k+ stars", "5000": "5k+ stars",
                               "10000": "10k+ stars"}
OWNERS: tuple[str, ...] = ("octo-labs", "nimbus-dev", "quarkworks", "brightpath", "ferrous-io",
                           "tidewater", "lumen-hq", "polaris-oss", "hexagon-co", "driftwood")
PEOPLE: tuple[str, ...] = ("alice-chen", "bkumar", "carlos-m", "dana-w", "eli-park",
                           "fatima-z", "gwen-r", "hiro-t")
LABELS: tuple[str, ...] = ("bug", "enhancement", "documentation", "good first issue",
                           "help wanted", "performance", "question")
LABEL_COLORS: dict[str, str] = {
    "bug": "#d73a4a", "enhancement": "#a2eeef", "documentation": "#0075ca",
    "good first issue": "#7057ff", "help wanted": "#008672", "performance": "#fbca04",
    "question": "#d876e3",
}
MILESTONES: tuple[str, ...] = ("v1.0", "v1.1", "v2.0", "Backlog", "Q3 roadmap")
BRANCHES: tuple[str, ...] = ("main", "master", "develop", "trunk", "stable")
PR_BRANCHES: tuple[str, ...] = ("fix/login-timeout", "feat/dark-mode", "chore/bump-deps",
                                "fix/memory-leak", "feat/plugin-api", "docs/quickstart",
                                "refactor/config-loader", "feat/streaming")
CHECKS: tuple[str, ...] = ("passing", "failing", "pending")
WATCH_LEVELS: tuple[str, ...] = ("participating", "all", "ignore")
WATCH_LABELS: dict[str, str] = {"participating": "Participating and @mentions",
                                "all": "All Activity", "ignore": "Ignore"}
MERGE_METHODS: tuple[str, ...] = ("merge", "squash", "rebase")
MERGE_LABELS: dict[str, str] = {"merge": "Create a merge commit", "squash": "Squash and merge",
                                "rebase": "Rebase and merge"}
ISSUE_STATES: tuple[str, ...] = ("open", "closed")
PR_STATES: tuple[str, ...] = ("open", "closed")
ISSUE_SORTS: tuple[str, ...] = ("newest", "oldest", "most_commented")
PR_SORTS: tuple[str, ...] = ("newest", "oldest")
SORT_LABELS: dict[str, str] = {"newest": "Newest", "oldest": "Oldest",
                               "most_commented": "Most commented"}

NAME_HEADS: tuple[str, ...] = ("swift", "ultra", "nova", "fast", "micro", "hyper", "open",
                               "tiny", "deep", "smart", "cloud", "pico", "turbo", "zen")
NAME_TAILS: tuple[str, ...] = ("pipeline", "router", "store", "kit", "forge", "cache", "query",
                               "flow", "gate", "graph", "lint", "bench", "sync", "vault")
BLURBS: dict[str, str] = {
    "api": "A typed REST and GraphQL api toolkit",
    "cli": "Composable command-line interface builder",
    "database": "Embedded database engine with a SQL layer",
    "machine-learning": "Machine learning pipelines and model serving",
    "web": "Lightweight web framework with server rendering",
    "devops": "Infrastructure automation and deployment tooling",
    "testing": "Fast snapshot and property testing framework",
    "security": "Secrets scanning and dependency auditing",
}
ISSUE_TOPICS: tuple[str, ...] = ("crash on startup", "timeout when uploading files",
                                 "memory usage grows over time", "docs for the config file",
                                 "support for Windows paths", "flaky integration test",
                                 "typo in error message", "slow cold start",
                                 "add retry option", "unicode handling in names",
                                 "deprecation warnings", "broken link in README")
KEYWORDS: tuple[str, ...] = ("segfault", "proxy", "locale", "websocket", "checksum", "symlink",
                             "oauth", "pagination", "gzip", "cron")
README_LINES: tuple[str, ...] = ("Zero-config setup with sensible defaults.",
                                 "Plugin system for custom backends.",
                                 "Ships with a batteries-included CLI.",
                                 "Runs on Linux, macOS and Windows.",
                                 "Fully typed public API.",
                                 "Benchmarked against the leading alternatives.")
