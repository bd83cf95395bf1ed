    TID       TIME(ns)   DURATION  FUNCTION
    300              0             -> main
    300            500               -> parent
    300           2500                 -> long
    300           2750                   * probe:mark 2 0 0 0
    300           9500       7000      <- long
    300          14500      14000    <- parent
    302          14750          -  <- loop (no entry)
    300          24500      24500  <- main
