"""``python -m shutthebox`` runs the command line."""

from shutthebox.cli import main

if __name__ == "__main__":
    main()
