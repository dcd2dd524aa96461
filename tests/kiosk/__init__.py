"""Tests of python_bridge.kiosk: the museum kiosk, its server, page and deployment."""
