"""terrapipe's programs as a QGIS Processing provider (see docs/QGIS.md)."""


def classFactory(iface):
    from .plugin import TerrapipePlugin
    return TerrapipePlugin(iface)
