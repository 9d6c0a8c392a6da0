"""The just family: recipe runs (echoed command lines dropped, failures whole, known tools' output delegated)."""
