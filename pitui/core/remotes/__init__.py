"""Other machines' sessions over SSH: the remotes pitui knows (`config`), how ssh and rsync
are invoked (`ssh`, argument lists only, never a local shell), the read-only mirrors in
pitui's cache folder (`mirror`) and syncing them (`sync`)."""
