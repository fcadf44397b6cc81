"""Words for readers: numbers, money, units, dates and the engine's messages in their language."""
