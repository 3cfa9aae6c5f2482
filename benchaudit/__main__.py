from benchaudit.command import main

if __name__ == "__main__":  # pragma: no cover - exercised through subprocess tests
    main()
