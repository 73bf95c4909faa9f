"""Storage-side models: file cache, break-even, HDD, PCM write cache (and its MiniSim), Filebench, device characterization."""
