"""Home: what PCM Planner models, in plain words, with citations."""

import streamlit as st

st.title("PCM Planner")
st.markdown(
    """
**Where does phase-change memory (PCM) or other storage-class memory (SCM, e.g. Intel Optane) pay off?**
PCM Planner answers with analytical and trace-driven models from five papers, calibrated on bundled
measurements. Move the inputs, upload your own traces, compare devices and export every table as CSV.
Each page's URL encodes its inputs, so a link reproduces what you see; scenarios save and load as JSON.

| Role | Question | Model | Source |
|---|---|---|---|
| Fast storage behind a file cache | Is caching still worth it when storage is almost as fast as DRAM? | break-even reuse count n > (Tm − t)/(T − t); LRU vs admission-controlled cache | Park & Bahn, ASTESJ 2020 [004] |
| Paging device | Which page size and how much DRAM, when page faults are cheap? | AMAT = address translation + data access | Park & Bahn 2020 [004] |
| Memory extension behind DRAM | How slow, and how long will it last? | lifetime from write rate and endurance; write reduction; DRAM:NVM ratio | seed 002 |
| Write cache in front of an HDD | How much does a PCM write cache buy? | HALO vs LRU: traffic, seek distance, execution time; wear leveling | seed 003 |
| Storage for file workloads | Which workloads should PCM target? | Filebench personalities on PCM-DAX vs page-cached HDD/SSD | seeds 000, 001 |

Start with **Storage → File-cache break-even**, or look up the numbers behind every device in the
**Device catalogue**. Sources of all bundled data are listed in `data/SOURCES.md`.

**References.**
[004] Y. Park, H. Bahn, *Issues in File Caching and Virtual Memory Paging with Fast SCM Storage*,
ASTESJ 5(5), 2020, doi:10.25046/aj050581.
[FAST'20] J. Yang et al., *An Empirical Guide to the Behavior and Use of Scalable Persistent Memory*, USENIX FAST 2020.
"""
)
