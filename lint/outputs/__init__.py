"""Output formats: they read diagnostics and report documents and write them; nothing imports them back."""
