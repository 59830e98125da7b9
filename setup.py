"""The build's one step beyond pyproject.toml: the documentation's rule files (``docs/rulesets/``,
every ``.toml`` and ``.json`` below it) are shipped inside the package, as
``sheepfold/docs/rulesets/`` (the checkout's layout under the package folder), so that the
examples the docs cite come with a wheel. A checkout (and an editable install) reads them where
they are; the sdist carries ``docs/`` whole (MANIFEST.in), so a wheel built from it has them too.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

RULE_FILES = Path(__file__).resolve().parent / "docs" / "rulesets"
SUFFIXES = (".toml", ".json")


class BuildPyWithRuleFiles(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads docs/rulesets/ in the checkout
        dest = Path(self.build_lib) / "sheepfold" / "docs" / "rulesets"
        for path in sorted(RULE_FILES.rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES:
                target = dest / path.relative_to(RULE_FILES)
                self.mkpath(str(target.parent))
                self.copy_file(str(path), str(target))


setup(cmdclass={"build_py": BuildPyWithRuleFiles})
