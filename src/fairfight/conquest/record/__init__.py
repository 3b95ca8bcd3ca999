"""What a season archive ships and how one is made: standard library only.

`verifier` replays a published season (`python3 verifier.py verify .` inside an archive),
`engine.js` is the independent JavaScript verifier, `log_check` checks the season log's proofs
and signatures, `beacons` the public beacon's clock; `VERIFY.md` is the archive's guide.
`archive` assembles the files of an archive, `beacon_check` checks a beacon value before it is
recorded (the service's side). The shipped files import one another as plain files inside an
archive, so none imports anything but the standard library, `fairfight.core` and `rules`.
"""

__all__: list[str] = []
