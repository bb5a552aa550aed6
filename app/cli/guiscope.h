#pragma once

// The QGuiApplication that topocast-cli's Qt commands (render, handout) run under.

#include "launch/startup.h"

#include "topocast/model/error.h"

#include <QGuiApplication>

#include <memory>
#include <string>

namespace topocast::cli {

/// A QGuiApplication for the length of one command, unless the process already has one (the
/// tests run commands inside their QApplication). Throws topocast::Error when there is no
/// display: "<command> needs <needs> and there is no display (…); run it under a virtual X
/// server: xvfb-run … topocast-cli <command> …".
class GuiScope {
public:
    GuiScope(const std::string& command, const std::string& needs)
    {
        if (QCoreApplication::instance())
            return;
        app::setupRenderer();
        if (!app::haveDisplay())
            throw Error(command + " needs " + needs +
                        " and there is no display (DISPLAY and WAYLAND_DISPLAY are unset); run it under a virtual X "
                        "server: xvfb-run -a -s \"-screen 0 1600x1000x24\" topocast-cli " +
                        command + " …");
        m_app = std::make_unique<QGuiApplication>(m_argc, m_argv);
    }

private:
    int m_argc = 1;
    char m_name[16] = "topocast-cli";
    char* m_argv[2] = {m_name, nullptr};
    std::unique_ptr<QGuiApplication> m_app;
};

} // namespace topocast::cli
