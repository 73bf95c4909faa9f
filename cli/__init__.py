"""``pcm-planner`` batch command line: one module per subcommand in :mod:`cli.commands`."""
