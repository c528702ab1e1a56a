"""The subcommands of the ``atout`` command line, one module each."""
