// The report is installed by a constructor when the test binary loads; there is nothing to call.
