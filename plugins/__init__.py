"""The rule plugins that ship with atout: four-player Belote, Découverte, and the bots."""
