"""Endurance models: lifetime, write reduction and wear leveling."""
