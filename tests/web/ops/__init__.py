"""Tests of operating the service: health, logs, metrics, limits, pools, workers."""
