"""The house-rule packs that ship with atout (YAML data files)."""
