"""Planning domains on batches of states (paper §5), one module each; what a domain provides is
described in `la.domains.domain`.

    domain               the contract and what the domains share (goal test, expansion of a batch,
                         validation)
    sliding_tile         the (W²−1)-puzzle: the 8-, 15- and 24-puzzle
    pancake              the n-pancake puzzle
    blocksworld          n-blocksworld with one goal tower
    walk                 random walks back from the goal (LengthInc's tasks and the test sets)
    names                `make_domain("15-puzzle")`: a domain from its name (`8-puzzle`,
                         `15-puzzle`, `24-puzzle`, `<n>-pancake`, `<n>-blocksworld`)
    blocksworld_cost     the exact optimal cost of a single-tower blocksworld task
    blocksworld_uniform  blocksworld states drawn uniformly (Slaney & Thiébaux 2001)
    uniform              states drawn uniformly from a domain's solvable states
"""
