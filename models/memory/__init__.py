"""Memory-side models: virtual-memory paging on SCM and NVM memory extensions behind DRAM."""
