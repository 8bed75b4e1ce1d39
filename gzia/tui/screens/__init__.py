"""The screens of the terminal UI, one module each."""
