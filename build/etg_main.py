"""The frozen program's entry point: the same ``etg`` command as the console script."""

import multiprocessing

from etg.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # `etg ledger verify --full` walks the chain in workers
    main(prog_name="etg")
