"""Allow `python -m fairfight`."""

from fairfight.cli import main

main()
