"""The experiments' run machinery (shell): what turns the core's algorithms into resumable runs.

    runner         units, seeds, the results folder's files, progress lines, --jobs
    folder         a results folder: experiment.json, unit.json, tasks.json, checks before --resume
    processes      worker processes, signals (Ctrl-C, SIGTERM), no worker outliving its parent
    lock           one process per results folder
    checkpoint     checkpoints of LearnHeuristicPrac and Boot, one mechanism; the files of earlier versions
    persist        networks and optimiser states as .npz, without pickle
    network        a trained network on disk with its domain and encoding
    trained        the networks a results folder holds, ready to test
    boot_searches  Boot's searches spread over worker processes
    cli            the command lines' checks of arguments and inputs
    progress       the printer of PDB builds (la.pdb.store's progress calls), one line each on stderr; a heartbeat
"""
