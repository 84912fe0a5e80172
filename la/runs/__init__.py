"""The run machinery (shell): what turns the core's algorithms into resumable runs. It imports the
core and nothing else of the shell; the rooms above (la.rivals, la.heller, la.experiments) fill its
registries with what it must know of their files (`folder.READERS`, `folder.REMEDIES`,
`persist.register`).

    runner         units, seeds, the results folder's files, progress lines, --jobs
    folder         a results folder: experiment.json, unit.json, tasks.json, checks before --resume
    processes      worker processes, signals (Ctrl-C, SIGTERM), no worker outliving its parent
    lock           one process per results folder
    checkpoint     checkpoints of LearnHeuristicPrac and Boot, one mechanism; the files of earlier
                   versions
    persist        networks and optimiser states as .npz, without pickle
    network        a trained network on disk with its domain and encoding
    training       LearnHeuristicPrac as a run that survives interruption
    compat         what files of earlier versions lack, read as what they are
    machine        what a run's numbers were computed on
    shapes         results files checked against what their readers need
    cli            the command lines' checks of arguments and inputs
    stops          how a command ends: one-line errors, Ctrl-C and SIGTERM, a terminal without α
    progress       the printer of PDB builds (la.pdb.store's progress calls), one line each on
                   stderr; a heartbeat
"""
