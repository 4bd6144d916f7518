"""What people see: the HTTP API and page, HTML reports, console rendering.

Owns presentation only. May import everything in ``kgcheck.verifier`` and ``kgcheck.index``;
nothing imports it but ``kgcheck.cli``.
"""
