"""Playing games over the runtime: bots, batches of simulated games and their statistics, the
scenario runner and saved games.
"""
