"""Heller et al. (SoCS 2022)'s published values, printed and drawn beside ours
(`la.experiments.confidence_table`, `la.plots.confidence_tables`): their Table 1 (the networks'
confidence), Tables 2 and 3 (coverage), and the two blocks of test tasks those tables have.
"""

# Heller et al., Table 1 (IPC domains, medians over all their tasks): network -> (confidence in %:
# In, Out-U, Out-W; Kendall τ in %). Printed beside ours for orientation: other domains, other
# networks.
PAPER_OOD = {"Standard": (29.3, 14.5, 10.9, 84.1), "U50": (30.0, 0.5, 12.0, 84.0),
             "U90": (30.8, 0.4, 12.2, 84.1), "W50": (29.0, 10.9, 1.1, 84.6),
             "W90": (29.2, 5.5, 0.6, 84.5)}

# Heller et al. 2022, Tables 2 and 3: coverage on their 8 IPC domains, in this order (their columns
# depot ... trans).
PAPER_DOMAINS = ("Depots", "Grid", "Pipesworld-NoTankage", "Blocksworld", "Rovers", "Scanalyzer",
                 "Storage", "Transport")
# Table 2, per block: the base row's coverage as a fraction, then each row's change from it; None:
# the hard block has no Storage task. Their P (prioritising queue) does not say which threshold it
# uses; la sets PA beside it.
PAPER_TABLE2 = {
    "moderate single": {"base": (.85, .89, .80, 1.00, .51, .89, 1.00, .97),
                        "M5": (-.09, -.42, -.20, -.23, -.05, -.11, -.04, -.33),
                        "M40": (-.79, -.89, -.75, -.91, -.50, -.91, -.86, -.96),
                        "A5": (.05, .02, .04, .00, .17, -.35, .00, -.04),
                        "A40": (-.29, -.78, -.45, -.62, -.09, -.59, -.41, -.50)},
    "moderate dual": {"base": (.96, 1.00, .94, 1.00, .89, .98, 1.00, .98),
                      "M40": (.02, -.07, .02, .00, -.01, .02, .00, .02),
                      "M80": (-.07, -.09, -.19, .00, -.13, -.03, -.08, -.24),
                      "A40": (.03, -.04, .05, .00, .01, .02, .00, .02),
                      "A80": (.03, -.08, .04, .00, .00, .02, .00, .01),
                      "P20": (.02, -.01, .02, .00, .00, .01, .00, .01),
                      "P80": (.02, .00, .02, .00, .01, .01, .00, .02)},
    "hard dual": {"base": (.90, .92, .88, .52, .37, .98, None, .01),
                  "A40": (.05, .03, .01, -.01, .07, .01, None, -.01),
                  "A80": (-.01, -.19, -.03, .01, .01, .00, None, -.01),
                  "P20": (-.01, .00, .00, .01, -.04, .00, None, .00),
                  "P80": (-.04, -.04, -.01, .01, -.10, .00, None, -.01)}}
# Table 3, per block: the dual queue with A40 searched with each network; Standard's coverage, then
# each other network's change from it.
PAPER_TABLE3 = {
    "moderate": {"Standard": (.98, .94, .98, 1.00, .90, 1.00, 1.00, 1.00),
                 "W50": (.01, .02, .01, .00, .00, .00, .00, .00),
                 "W90": (.02, .03, .01, .00, .00, -.01, .00, .00),
                 "U50": (.00, .01, .00, .00, .00, .00, .00, .00),
                 "U90": (-.01, .03, -.01, .00, .00, .00, .00, .00)},
    "hard": {"Standard": (.93, .96, .90, .51, .44, 1.00, None, .02),
             "W50": (.02, -.01, -.01, .00, .00, -.01, None, -.02),
             "W90": (-.03, -.02, .00, .00, -.01, -.01, None, -.02),
             "U50": (.02, .00, -.02, .01, -.13, .00, None, -.02),
             "U90": (.00, -.02, -.04, .00, -.10, .00, None, -.02)}}
BLOCKS = ("moderate", "hard")        # the blocks of test tasks of Tables 2 and 3
