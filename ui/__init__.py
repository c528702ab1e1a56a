"""atout's front ends: the command line, the terminal game and the Arcade table."""
