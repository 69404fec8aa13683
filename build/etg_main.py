"""The frozen program's entry point: the same ``etg`` command as the console script."""

from etg.cli import main

if __name__ == "__main__":
    main(prog_name="etg")
