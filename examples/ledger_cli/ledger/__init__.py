"""ledger: a small command-line tool written with plain (eager) imports,
the starting point of README's worked example of `lazy-codec fix`."""
