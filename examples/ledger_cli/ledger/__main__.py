from ledger.cli import main

raise SystemExit(main())
