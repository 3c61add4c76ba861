"""One message's path: the exchange (open, search, actions, finish), the prompt, the reply pipeline, the Discord
adapter and the bot API."""
