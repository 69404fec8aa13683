from etg.cli import main

if __name__ == "__main__":  # not when a worker process of `verify --full` imports it
    main()
