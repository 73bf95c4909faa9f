"""Home: what PCM Planner models, in plain words, with citations."""

import streamlit as st

st.title("PCM Planner")
st.markdown(
    """
**Where does phase-change memory (PCM) or other storage-class memory (SCM, e.g. Intel Optane) pay off?**
PCM Planner answers with analytical and trace-driven models from five papers, calibrated on bundled
measurements. Move the inputs, upload your own traces, compare devices and export every table as CSV.
Each page's URL encodes its inputs, so a link reproduces what you see; scenarios save and load as JSON.

| Role of PCM / SCM | Question | Pages | Source |
|---|---|---|---|
| Storage behind a file cache | Is caching still worth it when storage is almost as fast as DRAM? Caching pays only for blocks reused more than n\\* = (Tm − t)/(T − t) times; admit blocks on their second reference. | Storage → File-cache break-even, File-cache simulation, Trace explorer | [004] §2 |
| Paging device | Which page size and how much DRAM, when page faults are cheap? Average memory access time = address translation (TLB) + data access (page faults). | Memory → Virtual memory on SCM | [004] §3–5 |
| Memory extension behind DRAM | How slow, and how long will it last? Slowdown vs DRAM:NVM ratio, write reduction, lifetime. | Memory → NVM memory extension; Endurance → Lifetime, Write reduction | [002] |
| Write cache in front of an HDD | How much does a PCM write cache buy? HALO vs LRU: traffic, seek distance, execution time; wear leveling. | Storage → HDD model, PCM write cache; Endurance → Wear leveling | [003] |
| Storage for file workloads | Which workloads should PCM target? Filebench personalities on PCM-DAX vs page-cached HDD/SSD; device characterization. | Storage → Filebench workloads, Device characterization; Planner | [000], [001] |

Start with the **Planner → Target-workload finder** for the ranking across all roles, or open a role's page.
The **Device catalogue** lists every device's numbers with their sources; add your own device there and it
appears in every device picker. Sources of all bundled data are in `data/SOURCES.md`.

**References.**
[000] Filebench evaluated on PCM mounted with a PCM-aware (DAX) file system to find PCM's target workloads (seed 000).
[001] J.-Y. Jung, K. Ireland, J. Ouyang, B. Childers, S. Cho, *Characterizing a Real PCM Storage Device* (seed 001).
[002] A. Awad, S. Blagodurov, Y. Solihin, *Write-Aware Management of NVM-based Memory Extensions* (seed 002).
[003] Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu, *PCM-Based Durable Write Cache for Fast Disk I/O* (seed 003).
[004] Y. Park, H. Bahn, *Issues in File Caching and Virtual Memory Paging with Fast SCM Storage*,
ASTESJ 5(5), 2020, doi:10.25046/aj050581.
[FAST'20] J. Yang et al., *An Empirical Guide to the Behavior and Use of Scalable Persistent Memory*, USENIX FAST 2020.
"""
)
