// The app tests' main: one QApplication for every test, then Catch2.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "startup.h"

#include <QApplication>

int main(int argc, char* argv[])
{
    topocast::app::setupRenderer();
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("topocast-tests"));
    QApplication::setApplicationName(QStringLiteral("topocast-tests"));
    return Catch::Session().run(argc, argv);
}
