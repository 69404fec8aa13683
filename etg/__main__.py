from etg.cli import main

main()
