"""Storage-side models: file cache, break-even, HDD, PCM write cache, Filebench, device characterization."""
