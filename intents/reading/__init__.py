"""Reading a message once: the words through the one lexicon, and the acts it shows."""
