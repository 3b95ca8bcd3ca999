"""Appendix A of the ballot design, copied into the tests as an independent oracle.

Columns: state, House seats, EV, 2020 margin (D-R), baseline, Senate classes, governor cycle,
two tags, opening board (D House seats, D senators, governor's party).
"""

APPENDIX_A = """
AL 7 9 -25.5 -3 II/III M evangelical black 3 0 R
AK 1 3 -10.1 -1 II/III M rural union 0 0 R
AZ 9 11 +0.3 0 I/III M hispanic suburban 5 1 D
AR 4 6 -27.6 -3 II/III M evangelical rural 1 0 R
CA 52 54 +29.2 +3 I/III M hispanic urban 34 2 D
CO 8 10 +13.5 +1 II/III M suburban hispanic 5 2 D
CT 5 7 +20.1 +2 I/III M suburban catholic 3 2 D
DE 1 3 +19.0 +2 I/II P suburban black 1 2 D
FL 28 30 -3.4 0 I/III M cuban suburban 14 1 R
GA 14 16 +0.2 0 II/III M black evangelical 7 1 D
HI 2 4 +29.5 +3 I/III M urban union 1 2 D
ID 2 4 -30.8 -3 II/III M rural farm 1 0 R
IL 17 19 +17.0 +2 II/III M urban union 10 2 D
IN 9 11 -16.1 -2 I/III P farm union 4 0 R
IA 4 6 -8.2 -1 II/III M farm rural 2 0 R
KS 4 6 -14.6 -1 II/III M farm evangelical 2 0 R
KY 6 8 -25.9 -3 II/III O3 evangelical rural 2 0 R
LA 6 8 -18.6 -2 II/III O3 catholic black 2 0 R
ME 2 4 +9.1 +1 I/II M rural catholic 1 2 D
MD 8 10 +33.2 +3 I/III M black suburban 5 2 D
MA 9 11 +33.5 +3 I/II M catholic urban 6 2 D
MI 13 15 +2.8 0 I/II M union black 7 1 D
MN 8 10 +7.1 +1 I/II M farm union 4 2 D
MS 4 6 -16.5 -2 I/II O3 black evangelical 2 0 R
MO 8 10 -15.4 -2 I/III P evangelical suburban 3 0 R
MT 2 4 -16.4 -2 I/II P rural farm 1 0 R
NE 3 5 -19.1 -2 I/II M farm catholic 1 0 R
NV 4 6 +2.4 0 I/III M hispanic union 2 1 D
NH 2 4 +7.4 +1 II/III PM suburban catholic 1 2 D
NJ 12 14 +15.9 +2 I/II O1 suburban jewish 7 2 D
NM 3 5 +10.8 +1 I/II M hispanic catholic 2 2 D
NY 26 28 +23.1 +2 I/III M urban jewish 16 2 D
NC 14 16 -1.3 0 II/III P evangelical black 7 1 R
ND 1 3 -33.4 -3 I/III P farm rural 0 0 R
OH 15 17 -8.0 -1 I/III M union catholic 7 0 R
OK 5 7 -33.1 -3 II/III M evangelical rural 2 0 R
OR 6 8 +16.1 +2 II/III M urban rural 3 2 D
PA 17 19 +1.2 0 I/III M union catholic 9 1 D
RI 2 4 +20.8 +2 I/II M catholic urban 1 2 D
SC 7 9 -11.7 -1 II/III M black evangelical 3 0 R
SD 1 3 -26.2 -3 II/III M farm rural 0 0 R
TN 9 11 -23.2 -2 I/II M evangelical suburban 3 0 R
TX 38 40 -5.6 -1 I/II M hispanic evangelical 18 0 R
UT 4 6 -20.5 -2 I/III P rural suburban 2 0 R
VT 1 3 +35.4 +3 I/III PM rural farm 1 2 D
VA 11 13 +10.1 +1 I/II O1 suburban black 6 2 D
WA 10 12 +19.2 +2 I/III P urban union 6 2 D
WV 2 4 -38.9 -3 I/II P union rural 1 0 R
WI 8 10 +0.6 0 I/III M farm union 4 1 D
WY 1 3 -43.4 -3 I/II M rural farm 0 0 R"""


def rows() -> list[dict[str, object]]:
    """The appendix as dicts, one per state, in appendix order."""
    parsed = []
    for line in APPENDIX_A.strip().splitlines():
        code, house, ev, margin, base, senate, gov, tag1, tag2, house_d, senate_d, gov_party = (
            line.split()
        )
        parsed.append(
            {
                "code": code,
                "house": int(house),
                "ev": int(ev),
                "margin": float(margin),
                "base": int(base),
                "senate": senate.split("/"),
                "gov": gov,
                "tags": (tag1, tag2),
                "house_d": int(house_d),
                "senate_d": int(senate_d),
                "gov_party": gov_party,
            }
        )
    return parsed
