"""The kgcheck command's subcommands by concern (build, claims, text, serve) and what they share (common);
`cli.py` assembles them into the `kgcheck` group. A thin click layer: each command parses options, calls
the library and prints; domain errors become one-line messages (common.handle_errors).
"""
