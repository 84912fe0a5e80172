"""The paper's rivals, run on equal terms with LearnHeuristicPrac (part of the shell: they import
the core).

    boot            Boot, the bootstrap learner of Jabbari Arfaee, Zilles & Holte (2011): the
                    paper's Table 3 rival
    boot_round      the round under way of a Boot run, kept so that an interrupted round goes on
    boot_searches   Boot's searches spread over worker processes (`la.runs.processes`)
    optimal_labels  states labelled with their exact h* from optimal plans, and a network trained on
                    them (the like-for-like version of the paper's comparison with Ernandes & Gori
                    2004)
    calibration     is y^α below h* a fraction α of the time? and split conformal y^α, which makes
                    it so
"""
