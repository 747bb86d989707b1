"""The balance workflow: compare variants with common random numbers, sweep and tune rule
parameters, rank parameters by sensitivity, rate the bots on a skill ladder, render balance PDFs,
gate CI on drift and keep golden traces. Everything works through the GameSpec contract alone.
"""
