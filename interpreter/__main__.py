from interpreter.ui.cli import main

main()
