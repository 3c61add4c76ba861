"""The facts domain: writing and wiping facts and the summary, reading them, the panel's list, export and import."""
