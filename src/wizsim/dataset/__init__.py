"""Simulations written as Parquet datasets: run plans, chunks, engines (local, Dask) and reading back.

``spec`` names a run and splits it into fixed chunks; ``rows`` turns a chunk's batch into the
columns of ``io.schema``; ``chunk`` is the unit of work both engines run (simulate, build rows,
encode); ``run`` owns the output folder (manifest, resume, refusal) and the local engine;
``dask_engine`` runs chunks on a Dask cluster; ``read`` loads a dataset into pandas; ``labels`` is the other
kind of run, the ``net`` policy's training examples (its own spec and chunks, the same folder and engines).
"""
