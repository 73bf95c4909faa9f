"""Subcommand modules (see :mod:`cli.main`)."""
