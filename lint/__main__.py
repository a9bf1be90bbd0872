"""`python -m amdgpu_lint`."""

from .cli import main

raise SystemExit(main())
