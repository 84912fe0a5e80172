"""What every command-line entry point shares: one-line errors and exit status 2 on bad input."""
import argparse
import sys


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, exit status 2, no usage dump."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def run(main, argv=None) -> int:
    """Call `main(argv)`; a ValueError (bad input) becomes one line on stderr and exit status 2."""
    try:
        return main(argv)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
