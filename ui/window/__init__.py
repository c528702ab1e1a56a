"""The Arcade window: the start view, the tables of both games, their panels."""
