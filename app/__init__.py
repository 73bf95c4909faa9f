"""PCM Planner Streamlit app: thin views over :mod:`models`."""
