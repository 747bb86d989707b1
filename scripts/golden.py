"""`make golden`: re-record the golden traces of every registered game (review the diff before committing)."""

from sim.workflow.golden import refresh

if __name__ == "__main__":
    for path in refresh():
        print(path)
